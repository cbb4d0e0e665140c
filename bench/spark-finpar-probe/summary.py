import json,collections,re,datetime,sys,subprocess
out,jfr=sys.argv[1],sys.argv[2]
js=subprocess.run(['jfr','print','--json','--events','jdk.Compilation',jfr],capture_output=True,text=True).stdout
evs=json.loads(js)['recording']['events']
t0s=[];runs=[]
for line in open(out):
    if line.startswith('run '):
        w=line.split(); t0s.append(int(w[3])); runs.append(dict(wall=float(w[5]),cpu=float(w[7])))
    if 'cpu by group' in line:
        g=dict(x.split('=') for x in line.split(':')[1].split())
        runs[-1]['main']=int(g.get('main',0)); runs[-1]['kern']=int(g.get('l0-compiler',0)); runs[-1]['task']=int(g.get('task',0))
def ms(ts):
    ts=ts.replace('Z','+00:00'); return datetime.datetime.fromisoformat(ts).timestamp()*1000
def dur(s):
    m=re.match(r'PT(?:(\d+)M)?([\d.]+)S',s); return (int(m.group(1) or 0)*60+float(m.group(2)))*1000
c2=collections.Counter(); c2n=collections.Counter(); l0n=collections.Counter(); l0ms=collections.Counter()
for e in evs:
    v=e['values']; t=ms(v['startTime']); r=sum(1 for x in t0s if x<=t)-1
    if v['compileLevel']!=4: continue
    c2[r]+=dur(v['duration']); c2n[r]+=1
    cls=v['method']['type']['name']
    if cls.startswith('dev/l0/') and 'generated' not in cls: l0n[r]+=1; l0ms[r]+=dur(v['duration'])
for i,r in enumerate(runs):
    print('run %2d wall %6.3f procCpu %5.2f main %4d kern %4d task %3d | C2 n %4d ms %6.0f | C2 of dev.l0 (not kernels) n %3d ms %5.0f'%(i,r['wall'],r['cpu'],r.get('main',0),r.get('kern',0),r.get('task',0),c2n[i],c2[i],l0n[i],l0ms[i]))

package dev.l0.kernels.lower;

import dev.l0.ir.Dim;
import dev.l0.ir.ScalarType;
import dev.l0.ir.SourcePos;
import dev.l0.ir.Type;
import dev.l0.kernels.ir.Buffer;
import dev.l0.kernels.ir.GroupInput;
import dev.l0.kernels.ir.HostStep;
import dev.l0.kernels.ir.KernelError;
import dev.l0.kernels.ir.KernelExpr;
import dev.l0.kernels.ir.KernelGroup;
import dev.l0.opt.ir.Analysis;
import dev.l0.opt.ir.Body;
import dev.l0.opt.ir.Exp;
import dev.l0.opt.ir.Ident;
import dev.l0.opt.ir.InternalFunction;
import dev.l0.opt.ir.InternalTypes;
import dev.l0.opt.ir.Lambda;
import dev.l0.opt.ir.Stm;
import dev.l0.opt.ir.SubExp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the lowering of one kernel group shares across its kernels: the types of the enclosing
 * function's names, the group inputs (made on first use of a name bound outside the SOAC) and the
 * transposed copies its kernels read instead of some of them, the run-time errors its kernels can
 * raise, and fresh C-safe names.
 */
final class GroupContext {
  private final Map<String, Type> types = new HashMap<>();
  private final Set<String> boundInsideSoac;
  private final List<GroupInput> inputs = new ArrayList<>();
  private final Map<String, Binding> inputBindings = new HashMap<>();
  private final Set<KernelExpr.Var> hostScalars = new HashSet<>();

  /** Host scalars whose values the lowering learns after their first use, in the order defined. */
  private final Map<KernelExpr.Var, KernelExpr> deferred = new java.util.LinkedHashMap<>();

  private final List<KernelError> errors = new ArrayList<>();
  private final Set<String> readTransposed;

  /**
   * Where the SOAC is in the source, for the run-time errors raised where no nearer position is
   * known.
   */
  private final SourcePos soacPos;

  private final String soacOperation;
  private final List<TiledTranspose.Copy> transposedCopies = new ArrayList<>();

  /**
   * The {@code transpose} and {@code reshape} statements of the enclosing function outside the
   * SOAC, by the name they bind: a kernel reads such an array as a view of its operand ({@link
   * #input}).
   */
  private final Map<String, Exp> indexFunctions = new HashMap<>();

  private int nameCounter;

  /** Whether maps inside threads run two rows at a time where that gains. */
  private final boolean interleaveRows;

  /**
   * For lowering {@code soac} of {@code function}; its kernels read the arrays named in {@code
   * readTransposed} from a copy with the row index innermost ({@link UncoalescedReads}); maps
   * inside its threads run two rows at a time where that gains ({@link InterleavedRows}) if {@code
   * interleaveRows}.
   */
  GroupContext(
      InternalFunction function,
      Exp.Soac soac,
      Set<String> readTransposed,
      boolean interleaveRows) {
    this.readTransposed = Set.copyOf(readTransposed);
    this.interleaveRows = interleaveRows;
    soacPos = SourcePositions.ofSoac(soac);
    soacOperation =
        soac instanceof Exp.Screma s && s.folds()
            ? (s.scans() ? "scan" : "reduce")
            : soac.keyword();
    boundInsideSoac = Analysis.boundInside(soac);
    hostScalars.add(KernelGroup.CAPACITY_SCALE);
    function.params().forEach(this::declare);
    collectTypes(function.body());
  }

  private void declare(Ident id) {
    types.put(id.name(), id.type());
  }

  private void collectTypes(Body body) {
    for (Stm stm : body.stms()) {
      stm.pattern().forEach(this::declare);
      Exp e = stm.exp();
      if ((e instanceof Exp.Transpose || e instanceof Exp.Reshape)
          && !boundInsideSoac.contains(stm.pattern().get(0).name())) {
        indexFunctions.put(stm.pattern().get(0).name(), e);
      }
      if (e instanceof Exp.Loop loop) {
        loop.mergeParams().forEach(this::declare);
        declare(loop.counter());
      }
      e.bodies().forEach(this::collectTypes);
      for (Lambda l : e.lambdas()) {
        l.params().forEach(this::declare);
        collectTypes(l.body());
      }
    }
  }

  /**
   * The binding of {@code name}, bound outside the SOAC: made a group input on first use. An array
   * the function binds by a {@code transpose} or {@code reshape} of another outside the SOAC is a
   * view of that one (thesis ch. 8: index functions are delayed), so the kernel reads the operand's
   * buffer and no copy is made for it; the host has already checked the reshape's shape. Only where
   * the view's reads would not coalesce does a tiled transpose copy the operand ({@link
   * UncoalescedReads}).
   */
  Binding input(String name) {
    Binding known = inputBindings.get(name);
    if (known != null) {
      return known;
    }
    Binding view = viewOfOperand(indexFunctions.get(name));
    if (view != null) {
      inputBindings.put(name, view);
      return view;
    }
    Type type = types.get(name);
    if (type == null || boundInsideSoac.contains(name)) {
      throw new UnsupportedKernelException("a free variable of unknown type: " + name);
    }
    Binding binding;
    if (type instanceof ScalarType scalar) {
      KernelExpr.Var variable = fresh("in_" + name, scalar);
      inputs.add(new GroupInput.Scalar(name, variable));
      hostScalars.add(variable);
      binding = new Binding.Scalar(variable);
    } else if (type.baseElement() instanceof ScalarType element) {
      Buffer buffer = freshBuffer("in_" + name, element);
      List<KernelExpr.Var> shape = new ArrayList<>();
      for (int d = 0; d < type.rank(); d++) {
        shape.add(fresh("in_" + name + "_d" + d, ScalarType.I64));
      }
      inputs.add(new GroupInput.Array(name, buffer, shape));
      hostScalars.addAll(shape);
      if (readTransposed.contains(name)) {
        Buffer copy = freshBuffer("rows_inner_" + name, element);
        transposedCopies.add(new TiledTranspose.Copy(buffer, copy, List.copyOf(shape)));
        binding = ArrayView.rowIndexInnermost(copy, List.copyOf(shape));
      } else {
        binding = ArrayView.rowMajor(buffer, KernelExprs.ZERO, List.copyOf(shape));
      }
    } else {
      throw new UnsupportedKernelException("a free variable of type " + type + ": " + name);
    }
    inputBindings.put(name, binding);
    return binding;
  }

  /** The type of {@code name}, bound in the enclosing function; null for a name it lacks. */
  Type typeOf(String name) {
    return types.get(name);
  }

  /**
   * Binds {@code name}, an array that an earlier kernel of the group writes at {@code view}: the
   * later kernels read it there, and it is no group input.
   */
  void bindComputed(String name, ArrayView view) {
    inputBindings.put(name, view);
  }

  /**
   * {@code transpose(k, n, a)} or {@code reshape(shape, a)} as a view of {@code a}'s binding; null
   * where {@code e} is neither, {@code a} is no array of scalars, or a reshape's operand is not
   * contiguous (read from a copy with the row index innermost).
   */
  private Binding viewOfOperand(Exp e) {
    SubExp operand =
        e instanceof Exp.Transpose t
            ? t.array()
            : e instanceof Exp.Reshape r && r.shape().stream().allMatch(this::isHostOperand)
                ? r.array()
                : null;
    if (!(operand instanceof SubExp.Var v)
        || !(types.get(v.name()) instanceof Type.Array array)
        || !(array.baseElement() instanceof ScalarType)
        || boundInsideSoac.contains(v.name())
        || !(input(v.name()) instanceof ArrayView source)) {
      return null;
    }
    if (e instanceof Exp.Transpose t) {
      return source.transposed(t.k(), t.n());
    }
    if (!source.isContiguous()) {
      return null;
    }
    List<KernelExpr> dims = new ArrayList<>();
    for (SubExp size : ((Exp.Reshape) e).shape()) {
      dims.add(hostSize(InternalTypes.dimOf(size)));
    }
    return source.reshaped(dims, KernelExprs.TRUE);
  }

  /** A constant or a scalar of the enclosing function bound outside the SOAC. */
  private boolean isHostOperand(SubExp s) {
    return s instanceof SubExp.Const
        || s instanceof SubExp.Var v
            && types.get(v.name()) instanceof ScalarType
            && !boundInsideSoac.contains(v.name());
  }

  /**
   * A size from a type as an {@code i64} host expression: a constant, or a scalar of the enclosing
   * function (made a group input).
   */
  KernelExpr hostSize(Dim dim) {
    if (dim instanceof Dim.Const c) {
      return KernelExprs.i64(c.size());
    }
    if (dim instanceof Dim.Named named
        && types.containsKey(named.variable())
        && !boundInsideSoac.contains(named.variable())
        && input(named.variable()) instanceof Binding.Scalar scalar) {
      return KernelExprs.convert(scalar.value(), ScalarType.I64);
    }
    throw new UnsupportedKernelException(
        "an array result whose size is not known before the kernel runs");
  }

  /** Whether maps inside the group's threads run two rows at a time where that gains. */
  boolean interleavesRows() {
    return interleaveRows;
  }

  /**
   * Whether {@code e} reads only constants and the group's input scalars and sizes: the host can
   * compute it.
   */
  boolean isHostExpression(KernelExpr e) {
    if (e instanceof KernelExpr.Constant) {
      return true;
    }
    if (e instanceof KernelExpr.Var v) {
      return hostScalars.contains(v);
    }
    if (e instanceof KernelExpr.Binary b) {
      return isHostExpression(b.left()) && isHostExpression(b.right());
    }
    if (e instanceof KernelExpr.Unary u) {
      return isHostExpression(u.operand());
    }
    if (e instanceof KernelExpr.Call c) {
      return c.args().stream().allMatch(this::isHostExpression);
    }
    if (e instanceof KernelExpr.Select s) {
      return isHostExpression(s.condition())
          && isHostExpression(s.ifTrue())
          && isHostExpression(s.ifFalse());
    }
    return false;
  }

  /**
   * {@link #hostShape}, or {@code null} where a size of {@code type} is known only when the kernel
   * runs.
   */
  List<KernelExpr> knownHostShape(Type type) {
    try {
      return hostShape(type);
    } catch (UnsupportedKernelException unknown) {
      return null;
    }
  }

  /**
   * The sizes of an array type as far as the host knows them (constants and the group's input
   * scalars), 0 for the others: the shape the interpreter gives rows that are not there.
   */
  List<KernelExpr> staticShape(Type type) {
    List<KernelExpr> dims = new ArrayList<>();
    for (Type t = type; t instanceof Type.Array array; t = array.element()) {
      try {
        dims.add(hostSize(array.size()));
      } catch (UnsupportedKernelException unknown) {
        dims.add(KernelExprs.ZERO);
      }
    }
    return dims;
  }

  /** The sizes of an array type, outermost first, as host expressions ({@link #hostSize}). */
  List<KernelExpr> hostShape(Type type) {
    List<KernelExpr> dims = new ArrayList<>();
    for (Type t = type; t instanceof Type.Array array; t = array.element()) {
      dims.add(hostSize(array.size()));
    }
    return dims;
  }

  /** The source position of the group's SOAC ({@link SourcePositions#ofSoac}). */
  SourcePos soacPos() {
    return soacPos;
  }

  /**
   * The SOAC as its program wrote it, which its errors name: {@code reduce} for a reduce or
   * redomap, {@code scan} for a scan or scanomap, else its keyword.
   */
  String soacOperation() {
    return soacOperation;
  }

  /**
   * Records a run-time error a kernel can raise (once, however often it is raised); returns its
   * code.
   */
  int error(String operation, SourcePos pos, String detail) {
    return register(new KernelError(operation, pos, detail));
  }

  /**
   * Records that a thread's array grown by the construct at {@code pos} can outgrow its per-thread
   * capacity ({@link KernelError#capacityOverflow}); returns its code.
   */
  int capacityOverflow(String operation, SourcePos pos, String detail) {
    return register(new KernelError(operation, pos, detail, true));
  }

  private int register(KernelError error) {
    if (!errors.contains(error)) {
      errors.add(error);
    }
    return errors.indexOf(error) + 1;
  }

  /** A fresh {@code i64} host scalar whose value {@link #defineDeferred} gives later. */
  KernelExpr.Var deferredHostScalar(String base) {
    KernelExpr.Var variable = fresh(base, ScalarType.I64);
    hostScalars.add(variable);
    return variable;
  }

  void defineDeferred(KernelExpr.Var variable, KernelExpr value) {
    deferred.put(variable, value);
  }

  /**
   * The host steps defining the deferred scalars defined since the last call, to run before a
   * launch.
   */
  List<HostStep> takeDeferredDefinitions() {
    List<HostStep> steps = new ArrayList<>();
    deferred.forEach((variable, value) -> steps.add(new HostStep.Define(variable, value)));
    deferred.clear();
    return steps;
  }

  KernelExpr.Var fresh(String base, ScalarType type) {
    return new KernelExpr.Var(freshName(base), type);
  }

  Buffer freshBuffer(String base, ScalarType elementType) {
    return new Buffer(freshName(base), elementType);
  }

  /** A fresh {@link Buffer.Space#THREAD_PRIVATE} buffer: each thread's own array. */
  Buffer freshThreadPrivateBuffer(String base, ScalarType elementType) {
    return new Buffer(freshName(base), elementType, Buffer.Space.THREAD_PRIVATE);
  }

  /** {@code base} made a C identifier, with a counter that no other name of the group has. */
  String freshName(String base) {
    return base.replaceAll("[^A-Za-z0-9_]", "_") + "_" + nameCounter++;
  }

  List<GroupInput> inputs() {
    return List.copyOf(inputs);
  }

  List<KernelError> errors() {
    return List.copyOf(errors);
  }

  /** The copies with the row index innermost that the kernels read, to be made before they run. */
  List<TiledTranspose.Copy> transposedCopies() {
    return List.copyOf(transposedCopies);
  }
}

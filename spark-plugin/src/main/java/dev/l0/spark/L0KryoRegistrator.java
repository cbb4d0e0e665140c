package dev.l0.spark;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import dev.l0.ir.ScalarType;
import dev.l0.kernels.exact.ExactSum;
import dev.l0.kernels.jvm.FlatArray;
import dev.l0.spark.pipeline.BoundValues;
import dev.l0.spark.pipeline.ExecutionSettings;
import dev.l0.spark.pipeline.InputBinding;
import dev.l0.spark.pipeline.PartialResult;
import dev.l0.spark.pipeline.PipelineSpec;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.serializer.KryoRegistrator;

/**
 * Registers what pipelines ship between JVMs with Spark's Kryo ({@code
 * spark.kryo.registrator=dev.l0.spark.L0KryoRegistrator}). Spark's Kryo (4.x) cannot set a record's
 * final fields, so records and the spec travel with Java serialization inside Kryo; partial results
 * and {@link FlatArray}s, which travel in volume, have compact serializers (the {@link ExactSum}s
 * of exact float sums inside partial results travel with Java serialization).
 */
public final class L0KryoRegistrator implements KryoRegistrator {

  /** Spark instantiates the registrator by name. */
  public L0KryoRegistrator() {}

  @Override
  public void registerClasses(Kryo kryo) {
    JavaSerializer javaSerialization = new JavaSerializer();
    kryo.register(PipelineSpec.class, javaSerialization);
    kryo.register(InputBinding.class, javaSerialization);
    kryo.register(BoundValues.class, javaSerialization);
    kryo.register(ExecutionSettings.class, javaSerialization);
    kryo.register(ExactSum.class, javaSerialization);
    kryo.register(double[].class);
    kryo.register(float[].class);
    kryo.register(int[].class);
    kryo.register(long[].class);
    kryo.register(boolean[].class);
    kryo.register(FlatArray.class, new FlatArraySerializer());
    kryo.register(PartialResult.class, new PartialResultSerializer());
  }

  /** A partial result as its value count, then each value with its class. */
  private static final class PartialResultSerializer extends Serializer<PartialResult> {
    @Override
    public void write(Kryo kryo, Output output, PartialResult partial) {
      output.writeInt(partial.values().size(), true);
      for (Object value : partial.values()) {
        kryo.writeClassAndObject(output, value);
      }
    }

    @Override
    public PartialResult read(Kryo kryo, Input input, Class<PartialResult> type) {
      int size = input.readInt(true);
      List<Object> values = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        values.add(kryo.readClassAndObject(input));
      }
      return new PartialResult(values);
    }
  }

  /** A flat array as its element type, its shape and its primitive data array. */
  private static final class FlatArraySerializer extends Serializer<FlatArray> {
    @Override
    public void write(Kryo kryo, Output output, FlatArray array) {
      output.writeInt(array.elementType().ordinal(), true);
      int[] shape = array.shape();
      output.writeInt(shape.length, true);
      output.writeInts(shape, true);
      kryo.writeClassAndObject(output, array.data());
    }

    @Override
    public FlatArray read(Kryo kryo, Input input, Class<FlatArray> type) {
      ScalarType elementType = ScalarType.values()[input.readInt(true)];
      int[] shape = input.readInts(input.readInt(true), true);
      return new FlatArray(elementType, kryo.readClassAndObject(input), shape);
    }
  }
}

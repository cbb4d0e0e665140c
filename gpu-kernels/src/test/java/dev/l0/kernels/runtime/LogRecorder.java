package dev.l0.kernels.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects the records one class logs at INFO or above while it is open. */
public final class LogRecorder extends Handler implements AutoCloseable {
  private final Logger logger;
  private final List<LogRecord> records = new ArrayList<>();

  public LogRecorder(Class<?> loggingClass) {
    this.logger = Logger.getLogger(loggingClass.getName());
    setLevel(Level.INFO);
    logger.addHandler(this);
  }

  public synchronized List<String> lines() {
    return records.stream().map(LogRecord::getMessage).toList();
  }

  @Override
  public synchronized void publish(LogRecord record) {
    if (isLoggable(record)) {
      records.add(record);
    }
  }

  @Override
  public void flush() {}

  @Override
  public void close() {
    logger.removeHandler(this);
  }
}

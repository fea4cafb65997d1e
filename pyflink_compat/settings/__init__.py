"""The declarative registry of Flink settings: one source of truth for keys, defaults,
validation, Spark mapping and support status."""

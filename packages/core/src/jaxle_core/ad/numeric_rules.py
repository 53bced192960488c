"""JVP rules of windowed and special primitives: convolution, reduce_window and pooling, reduce_prod, the special functions (being written)."""

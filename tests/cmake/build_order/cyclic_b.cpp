int cyclic_b_value() { return 2; }

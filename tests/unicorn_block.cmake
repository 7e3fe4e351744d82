# Issue 14 part 2: the Unicorn 2.0.1 behaviours a block-granular replayer
# would rely on (replay/REPLAY.md "Block-granular replay").
citcat_unit_test(test_unicorn_block)

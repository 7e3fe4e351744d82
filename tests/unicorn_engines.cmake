# Issue 31 / issue 36 part 2: what the replayer's block engine does with
# Unicorn 2.0.1's translations, code hooks, cuts, memory and engines
# (replay/REPLAY.md "Interrupts, DMA and the block engine").
citcat_unit_test(test_unicorn_engines)

# Issue 14 part 2: the Unicorn 2.0.1 behaviours a block-granular replayer
# would rely on (replay/REPLAY.md "Block-granular replay").
citcat_unit_test(test_unicorn_block)
# where the block decoder takes the flags of a conditional memory
# instruction (machine/replay_block.c flag_sources), worked by hand
citcat_unit_test(test_rblk_flags)
target_include_directories(test_rblk_flags PRIVATE ${CMAKE_SOURCE_DIR}/machine ${CMAKE_SOURCE_DIR}/common ${CMAKE_SOURCE_DIR}/formats)

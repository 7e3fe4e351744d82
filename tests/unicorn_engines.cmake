# Issue 31 / issue 36 part 2: what the replayer's block engine does with
# Unicorn 2.0.1's translations, code hooks, cuts, memory and engines
# (replay/REPLAY.md "Interrupts, DMA and the block engine").
citcat_unit_test(test_unicorn_engines)
if(TARGET test_unicorn_engines)
  add_test(NAME test_unicorn_engines_flush COMMAND test_unicorn_engines flush)
  set_tests_properties(test_unicorn_engines_flush PROPERTIES LABELS slow)
endif()
# the engine replaced dozens of times (budget 16) on irqdma: still exact
add_executable(test_replay_renew test_replay_renew.c)
citcat_target_setup(test_replay_renew)
target_link_libraries(test_replay_renew PRIVATE citcat)
target_include_directories(test_replay_renew PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND TARGET firmware_irqdma)
  set(rr ${CMAKE_CURRENT_BINARY_DIR}/replay_renew)
  add_test(NAME replay_renew COMMAND bash -c
    "mkdir -p ${rr} && $<TARGET_FILE:citcat_cli> capture ${CITCAT_EXAMPLE_DIR}/irqdma.elf --seed 1 -q -o ${rr}/run.cat --oracle ${rr}/run.oracle --uart-out ${rr}/uart && $<TARGET_FILE:citcat_cli> ims ${rr}/run.cat -o ${rr}/run.ims 2>/dev/null && $<TARGET_FILE:citcat_cli> aes ${rr}/run.cat -o ${rr}/run.aes 2>/dev/null && $<TARGET_FILE:test_replay_renew> ${rr}/run.ims ${rr}/run.aes ${rr}/run.cat ${rr}/run.oracle ${rr}")
  set_tests_properties(replay_renew PROPERTIES LABELS e2e)
endif()

# auto's switches between blocks and the code hook over everything, with
# its window shortened (tests/test_replay_renew.c, its `auto` mode), ARM
# and Thumb
foreach(fw irqdma irqdma_thumb)
  if(CITCAT_EXAMPLES AND CITCAT_FIRMWARE_FOUND AND TARGET firmware_${fw})
    set(ra ${CMAKE_CURRENT_BINARY_DIR}/replay_auto_${fw})
    add_test(NAME replay_auto_${fw} COMMAND bash -c
      "mkdir -p ${ra} && $<TARGET_FILE:citcat_cli> capture ${CITCAT_EXAMPLE_DIR}/${fw}.elf --seed 1 -q -o ${ra}/run.cat --oracle ${ra}/run.oracle --uart-out ${ra}/uart && $<TARGET_FILE:citcat_cli> ims ${ra}/run.cat -o ${ra}/run.ims 2>/dev/null && $<TARGET_FILE:citcat_cli> aes ${ra}/run.cat -o ${ra}/run.aes 2>/dev/null && $<TARGET_FILE:test_replay_renew> ${ra}/run.ims ${ra}/run.aes ${ra}/run.cat ${ra}/run.oracle ${ra} auto")
    set_tests_properties(replay_auto_${fw} PROPERTIES LABELS e2e)
  endif()
endforeach()

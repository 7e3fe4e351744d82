# issue 14: the itrace writer's encoder thread and chunk cuts (formats/itrace.c)
citcat_unit_test(test_itrace_thread)

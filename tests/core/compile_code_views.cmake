# code_view_nvcc: writes the code views (emit_code_views) and compiles them with nvcc for sm_90.
execute_process(COMMAND ${EMIT} ${OUT} RESULT_VARIABLE emitted)
if(NOT emitted EQUAL 0)
  message(FATAL_ERROR "emit_code_views failed (${emitted})")
endif()
execute_process(COMMAND ${NVCC} -arch=sm_90 -diag-suppress 177,550 -c ${OUT} -o ${OUT}.o
                RESULT_VARIABLE compiled
                ERROR_VARIABLE errors)
if(NOT compiled EQUAL 0)
  message(FATAL_ERROR "nvcc refused the code views (${OUT}):\n${errors}")
endif()

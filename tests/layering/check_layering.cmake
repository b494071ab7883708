# The architecture as rules on include lines: every include of a project file names it from the
# repository root, so the folder in the line says which part it comes from, and each part may
# include only the parts listed for it here (core/README.md, app/README.md, kernels/README.md
# explain the parts). Run as a test:
#   cmake -DROOT=<repository> -P tests/layering/check_layering.cmake
# Prints every include that breaks a rule, with its file and line, and fails if there is one.

# A rule: the folder (a prefix of the including file's path), "|", then the prefixes of what it
# may include, separated by commas. The longest folder that matches a file decides. `kernels/public` stands for the
# headers at the top of kernels/ (gpu_bench.hpp, ...): the GPU library's face, the only part of
# it outside code may include.
set(core_base "core/base/")
set(core_model "${core_base},core/model/")
set(rules
  "core/base/|${core_base}"
  "core/model/|${core_model}"
  "core/report/|${core_model},core/report/"
  "core/code/|${core_model},core/code/"
  # The CUDA line shown for a scenario reads its Study; the rest of code/ needs none.
  "core/code/code_view|${core_model},core/report/,core/code/"
  "core/record/|${core_model},core/record/"
  "core/teach/|${core_model},core/report/,core/code/,core/record/,core/teach/"
  "core/solve/|${core_model},core/solve/"
  "core/validate/|${core_model},core/validate/"
  "core/banklab.hpp|core/"
  "kernels/|core/,kernels/"
  "app/figures/|core/,app/figures/"
  "app/frontend/|core/,kernels/public,app/figures/,app/frontend/"
  "app/cli/|core/,kernels/public,app/frontend/,app/figures/,app/cli/"
  "app/gui/render/|core/,app/frontend/,app/figures/,app/gui/render/"
  "app/gui/views/|core/,app/frontend/,app/figures/,app/gui/render/,app/gui/views/"
  "app/gui/state/|core/,kernels/public,app/frontend/,app/figures/,app/gui/render/,app/gui/views/,app/gui/state/"
  "app/gui/panels/|core/,kernels/public,app/frontend/,app/figures/,app/gui/render/,app/gui/views/,app/gui/state/,app/gui/panels/"
  "app/gui/platform/|core/,kernels/public,app/frontend/,app/figures/,app/gui/render/,app/gui/views/,app/gui/state/,app/gui/panels/,app/gui/platform/"
  "app/gui/main.cpp|core/,kernels/public,app/frontend/,app/figures/,app/gui/"
  "app/web/|core/,kernels/public,app/frontend/,app/figures/,app/gui/,app/web/"
  "bench/|core/,app/frontend/,bench/"
)
# Libraries that only some parts may use: the GUI's and CUDA's headers stay out of core, figures,
# the frontend and the command line.
set(no_gui_or_cuda core/ app/figures/ app/frontend/ app/cli/)
set(gui_or_cuda_headers "imgui" "GLFW/" "GL/" "cuda" "cupti" "cublas")

if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<repository> -P check_layering.cmake")
endif()
file(GLOB_RECURSE sources RELATIVE "${ROOT}" "${ROOT}/core/*" "${ROOT}/kernels/*" "${ROOT}/app/*"
     "${ROOT}/bench/*")
list(FILTER sources INCLUDE REGEX "\\.(hpp|cpp|cu|cuh)$")

set(broken 0)
set(checked 0)
foreach(source IN LISTS sources)
  # The rule of the longest matching folder.
  set(allowed "")
  set(best_length 0)
  foreach(rule IN LISTS rules)
    string(REPLACE "|" ";" parts "${rule}")
    list(POP_FRONT parts folder)
    string(REPLACE "," ";" parts "${parts}")
    string(LENGTH "${folder}" length)
    string(FIND "${source}" "${folder}" at)
    if(at EQUAL 0 AND length GREATER best_length)
      set(best_length ${length})
      set(allowed "${parts}")
    endif()
  endforeach()
  if(best_length EQUAL 0)
    continue()
  endif()
  file(STRINGS "${ROOT}/${source}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  foreach(line IN LISTS lines)
    math(EXPR checked "${checked} + 1")
    if(line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
      set(target "${CMAKE_MATCH_1}")
      if(NOT target MATCHES "/")
        continue()  # a generated header in the build tree (banklab_version_info.hpp)
      endif()
      # kernels/X.hpp at the top of kernels/ is the GPU library's public face.
      set(kind "${target}")
      if(target MATCHES "^kernels/[^/]+$")
        set(kind "kernels/public")
      endif()
      set(ok FALSE)
      foreach(prefix IN LISTS allowed)
        string(FIND "${kind}" "${prefix}" at)
        if(at EQUAL 0)
          set(ok TRUE)
        endif()
        # A part that may include kernels/ may include its public face too.
        if(prefix STREQUAL "kernels/" AND kind STREQUAL "kernels/public")
          set(ok TRUE)
        endif()
      endforeach()
      if(NOT ok)
        message("${source}: includes \"${target}\", which its part may not (allowed: ${allowed})")
        math(EXPR broken "${broken} + 1")
      endif()
    elseif(line MATCHES "#[ \t]*include[ \t]*<([^>]+)>")
      set(header "${CMAKE_MATCH_1}")
      foreach(prefix IN LISTS no_gui_or_cuda)
        string(FIND "${source}" "${prefix}" at)
        if(at EQUAL 0)
          foreach(forbidden IN LISTS gui_or_cuda_headers)
            string(FIND "${header}" "${forbidden}" hit)
            if(hit EQUAL 0)
              message("${source}: includes <${header}>: no GUI or CUDA header in ${prefix}")
              math(EXPR broken "${broken} + 1")
            endif()
          endforeach()
        endif()
      endforeach()
    endif()
  endforeach()
endforeach()
if(broken GREATER 0)
  message(FATAL_ERROR "${broken} include(s) break the layering")
endif()
list(LENGTH sources source_count)
message("layering: ${checked} include lines in ${source_count} sources follow the rules")

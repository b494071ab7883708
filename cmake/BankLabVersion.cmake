# The commit this tree was configured from, for `--version` (BANKLAB_COMMIT) and the Debian
# package's version (BANKLAB_PACKAGE_VERSION = 0.1.0+git<commits>.<hash>). Read when cmake
# configures (scripts/*.sh configure on every run), not on every build: a commit would
# otherwise relink every program and suite. Outside a git checkout of this very tree (a
# tarball, or a copy inside another repository) the commit is "unknown" and the package
# version is the project's alone.
set(BANKLAB_COMMIT unknown)
set(BANKLAB_PACKAGE_VERSION ${PROJECT_VERSION})
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(
    COMMAND ${GIT_EXECUTABLE} -C ${PROJECT_SOURCE_DIR} rev-parse --show-toplevel --short=12 HEAD
    OUTPUT_VARIABLE git_out RESULT_VARIABLE git_status ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(git_status EQUAL 0)
    string(REPLACE "\n" ";" git_out "${git_out}")
    list(GET git_out 0 git_top)
    list(GET git_out 1 git_hash)
    file(REAL_PATH "${git_top}" git_top)
    file(REAL_PATH "${PROJECT_SOURCE_DIR}" source_real)
    if(git_top STREQUAL source_real)
      execute_process(COMMAND ${GIT_EXECUTABLE} -C ${PROJECT_SOURCE_DIR} rev-list --count HEAD
                      OUTPUT_VARIABLE git_count ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
      set(BANKLAB_COMMIT ${git_hash})
      set(BANKLAB_PACKAGE_VERSION ${PROJECT_VERSION}+git${git_count}.${git_hash})
    endif()
  endif()
endif()
message(STATUS "BankLab ${PROJECT_VERSION}, commit ${BANKLAB_COMMIT}")

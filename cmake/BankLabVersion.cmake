# The commit this tree was configured from, for `--version` (BANKLAB_COMMIT) and the Debian
# package's version (BANKLAB_PACKAGE_VERSION = 0.1.0+git<commits>.<hash>). Read when cmake
# configures (scripts/*.sh configure on every run), not on every build: a commit would
# otherwise relink every program and suite. Outside a git checkout of this very tree (a
# tarball, or a copy inside another repository) the commit is "unknown" and the package
# version is the project's alone.
# A commit given on the command line (-DBANKLAB_COMMIT=..., for a tree copied without its .git,
# as on the GPU machine) is kept; git is asked only when none was given.
set(BANKLAB_PACKAGE_VERSION ${PROJECT_VERSION})
if(BANKLAB_COMMIT)
  set(banklab_commit_given TRUE)
else()
  set(BANKLAB_COMMIT unknown)
  set(banklab_commit_given FALSE)
endif()
find_package(Git QUIET)
if(GIT_FOUND AND NOT banklab_commit_given)
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

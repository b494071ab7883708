# What `cmake --install` and the Debian package add to the programs' own install rules
# (app/cli, app/gui): the data under share/banklab, a man page per program, and CPack's DEB
# settings. scripts/package.sh builds the package; tests/package checks it as a user gets it.

# The lessons, the recordings and the traces made on the H200 (data files the programs find
# through banklab::data_dir(); a trace names its program and sources relative to the folder it
# was made in, so no build path ships); any folder may not exist yet.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/lessons ${PROJECT_SOURCE_DIR}/assets/recordings
                  ${PROJECT_SOURCE_DIR}/assets/traces
        DESTINATION ${CMAKE_INSTALL_DATADIR}/banklab OPTIONAL)

# The license, where Debian keeps each package's (share/doc/<package>/copyright).
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/banklab
        RENAME copyright)

# A man page per program, written by help2man from its --help at build time.
find_program(BANKLAB_HELP2MAN help2man)
function(banklab_man_page target summary)
  if(NOT BANKLAB_HELP2MAN)
    message(STATUS "BankLab: help2man not found; no man page for ${target}")
    return()
  endif()
  set(page ${CMAKE_BINARY_DIR}/man/${target}.1)
  add_custom_command(
    OUTPUT ${page}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND ${CMAKE_COMMAND} -E env SOURCE_DATE_EPOCH=0 ${BANKLAB_HELP2MAN} --no-info --section=1
            --version-string=${BANKLAB_PACKAGE_VERSION} --name=${summary} --output=${page}
            $<TARGET_FILE:${target}>
    # help2man names the program by the path it ran; the page shows the name alone.
    COMMAND sed -i "s|$<TARGET_FILE:${target}>|${target}|g;s|$<TARGET_FILE_DIR:${target}>/||g"
            ${page}
    COMMAND gzip -9nf ${page}
    DEPENDS ${target}
    COMMENT "Writing the man page of ${target} (help2man)"
    VERBATIM)
  add_custom_target(${target}-man ALL DEPENDS ${page}.gz)
  install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endfunction()

banklab_man_page(banklab "count CUDA shared-memory bank conflicts as an H100/H200 does")
if(BANKLAB_BUILD_GUI)
  banklab_man_page(banklab-gui "see CUDA shared-memory bank conflicts, drawn and stepped through")
endif()

# The Debian package: banklab_<version>_<arch>.deb, installed under /usr. Its dependencies
# come from dpkg-shlibdeps (the runtime libraries the binaries link: GLFW, GL through
# libopengl0, stb, the C++ runtime). A build with CUDA makes a package with the GPU features
# that still installs and starts where CUDA is missing: the CUDA runtime is linked statically
# (it loads the driver's libcuda.so.1 itself), and cuBLAS and CUPTI are loaded with dlopen when
# a GPU command needs them (kernels/runtime/shared_library.hpp), so no CUDA library appears in
# Depends; without a driver or GPU the GPU commands say so in one line. scripts/package.sh
# builds it in a tree of its own, with CUDA when nvcc is found; tests/package makes it from the
# test command's build tree (the package target, which builds what is out of date).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME banklab)
set(CPACK_PACKAGE_VENDOR BankLab)
set(CPACK_PACKAGE_VERSION ${BANKLAB_PACKAGE_VERSION})
set(CPACK_PACKAGE_CONTACT "BankLab maintainers <maintainers@users.noreply.a-seed-ce387f33.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "CUDA shared-memory bank conflicts, exact and drawn")
# The long description (CPack puts the summary above it); one string, so no list separators.
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "BankLab teaches CUDA shared-memory bank conflicts: pick a tile (fp8, bf16, fp32 or fp64,\n"
  "padded or swizzled) and an access, and see every lane's address, word and bank and the\n"
  "wavefronts exactly as an H100/H200 counts them. banklab-gui draws it; banklab answers the\n"
  "same questions in a terminal.")
if(BANKLAB_HAVE_CUDA)
  string(APPEND CPACK_DEBIAN_PACKAGE_DESCRIPTION "\n"
    "With an NVIDIA driver and a GPU of compute capability 9.0 or newer (H100, H200), banklab\n"
    "gpu-bench times the lesson's kernels; reading the GPU's own counters (banklab validate)\n"
    "also needs CUDA 13's CUPTI.")
endif()
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# GLFW loads libGL.so.1 (GLX) at run time, which dpkg-shlibdeps cannot see.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libgl1")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
include(CPack)

# The browser edition's build settings (CMakePresets.json's "web" preset, run by scripts/web.sh):
# the same sources compiled by Debian's emscripten for wasm32, without CUDA, threads, tests or
# the package. Included by the top-level CMakeLists.txt when the toolchain is emscripten's.
#
# Debian's header-only libraries live in /usr/include, which cannot go on an emscripten include
# path (its glibc headers would shadow emscripten's libc), so each one used is linked into a
# folder of its own here and that folder is searched instead.

set(BANKLAB_BUILD_CUDA OFF CACHE BOOL "" FORCE)
set(BANKLAB_BUILD_TESTS OFF CACHE BOOL "" FORCE)
set(BANKLAB_BUILD_GUI ON CACHE BOOL "" FORCE)

# A unity build: each target's sources compiled in batches of 8, one translation unit a batch.
# em++ spends most of a unit on what every unit repeats (the standard library's, toml++'s,
# CLI11's and ImGui's headers parsed, their templates instantiated and optimized once per unit)
# and 0.3 CPU s on its own Python start: a fresh build of the page took 332 CPU s to compile its
# 157 units and 193 CPU s as 24 batches (issue 36; docs/web.md, "Build time"). The libraries
# take their UNITY_BUILD from BANKLAB_UNITY_BUILD (on), the rest from this default. Two files of
# one target must not declare the same name at namespace scope, even in an anonymous namespace
# (the structure test unity_names lists any).
set(CMAKE_UNITY_BUILD ON)
set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)

set(BANKLAB_WEB_HEADERS ${CMAKE_BINARY_DIR}/debian-headers)
file(MAKE_DIRECTORY ${BANKLAB_WEB_HEADERS})
foreach(entry IN ITEMS CLI toml++ nlohmann stb/stb_image_write.h)
  get_filename_component(name ${entry} NAME)
  if(NOT EXISTS /usr/include/${entry})
    message(FATAL_ERROR "BankLab web: /usr/include/${entry} is missing (scripts/web.sh installs "
                        "libcli11-dev, libtomlplusplus-dev, nlohmann-json3-dev and libstb-dev)")
  endif()
  file(CREATE_LINK /usr/include/${entry} ${BANKLAB_WEB_HEADERS}/${name} SYMBOLIC)
endforeach()
# What core/ and app/frontend/ would otherwise look for with find_path().
set(BANKLAB_CLI11_INCLUDE_DIR ${BANKLAB_WEB_HEADERS} CACHE PATH "" FORCE)
set(BANKLAB_TOMLPP_INCLUDE_DIR ${BANKLAB_WEB_HEADERS} CACHE PATH "" FORCE)
set(BANKLAB_NLOHMANN_INCLUDE_DIR ${BANKLAB_WEB_HEADERS} CACHE PATH "" FORCE)

# The core reports errors in code, lessons, recordings and arguments as exceptions it catches:
# catching must work in the browser too (emscripten turns it off by default). WebAssembly's own
# exceptions cost nothing until one is thrown; emscripten's JavaScript ones (-fexceptions) route
# every call that may unwind through JavaScript, which made a frame some ten times slower.
# Debian's emscripten ships its C++ libraries built for them (the "-except" variants).
add_compile_options(-fwasm-exceptions)
add_link_options(-fwasm-exceptions)

# Dear ImGui 1.86 from Debian's imgui source package (scripts/web.sh unpacks it with
# `apt-get source imgui`; it is never copied into this repository), with its GLFW backend over
# emscripten's GLFW and its OpenGL 3 backend in its OpenGL ES 3 (WebGL 2) form.
set(BANKLAB_IMGUI_SOURCE_DIR "" CACHE PATH "Debian's imgui 1.86 source (scripts/web.sh fetches it)")
if(NOT EXISTS "${BANKLAB_IMGUI_SOURCE_DIR}/imgui.cpp")
  message(FATAL_ERROR "BankLab web: BANKLAB_IMGUI_SOURCE_DIR ('${BANKLAB_IMGUI_SOURCE_DIR}') "
                      "holds no imgui.cpp; scripts/web.sh fetches Debian's imgui source")
endif()
set(imgui ${BANKLAB_IMGUI_SOURCE_DIR})
add_library(banklab_imgui STATIC
  ${imgui}/imgui.cpp
  ${imgui}/imgui_draw.cpp
  ${imgui}/imgui_tables.cpp
  ${imgui}/imgui_widgets.cpp
  ${imgui}/backends/imgui_impl_glfw.cpp
  ${imgui}/backends/imgui_impl_opengl3.cpp
  ${imgui}/misc/cpp/imgui_stdlib.cpp)
# The backends stay units of their own: the GLFW one includes desktop GL's header, after which
# the OpenGL 3 one would use glPolygonMode, which WebGL 2 lacks.
set_source_files_properties(${imgui}/backends/imgui_impl_glfw.cpp
                            ${imgui}/backends/imgui_impl_opengl3.cpp
                            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
# The app includes <imgui.h>, <imgui_stdlib.h> and <backends/...>, as with libimgui-dev.
target_include_directories(banklab_imgui SYSTEM PUBLIC ${imgui} ${imgui}/misc/cpp)
target_compile_definitions(banklab_imgui PUBLIC IMGUI_IMPL_OPENGL_ES3)
target_link_options(banklab_imgui PUBLIC -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2)

# stb_image_write (Debian's libstb-dev header) writes the PNG exports; the desktop links
# Debian's libstb, here its implementation is compiled from the header.
set(stb_impl ${CMAKE_BINARY_DIR}/stb_image_write.cpp)
file(WRITE ${stb_impl} "#define STB_IMAGE_WRITE_IMPLEMENTATION\n#include <stb_image_write.h>\n")
add_library(banklab_stb_image_write STATIC ${stb_impl})
target_include_directories(banklab_stb_image_write SYSTEM PUBLIC ${BANKLAB_WEB_HEADERS})

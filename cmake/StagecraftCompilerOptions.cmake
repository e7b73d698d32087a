# Warning flags and sanitizers shared by every Stagecraft target through
# the interface target stagecraft_options; nothing is set globally.
add_library(stagecraft_options INTERFACE)
target_compile_options(stagecraft_options INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
    -Wcast-align -Wunused -Woverloaded-virtual -Wnull-dereference
    -Wimplicit-fallthrough)
if(STAGECRAFT_WERROR)
    target_compile_options(stagecraft_options INTERFACE -Werror)
endif()
# Fuzzers: every target gets libFuzzer's coverage instrumentation next to the
# sanitizers; the harnesses alone link libFuzzer itself (tests/fuzz).
if(STAGECRAFT_BUILD_FUZZERS)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        message(FATAL_ERROR "STAGECRAFT_BUILD_FUZZERS needs clang (libFuzzer): use the fuzz preset")
    endif()
    list(PREPEND STAGECRAFT_SANITIZE fuzzer-no-link)
endif()
# Debian's hardening (dpkg-buildflags): full RELRO and immediate binding
# always; stack protection, and _FORTIFY_SOURCE where the build optimizes
# and no sanitizer replaces the checked functions.
target_link_options(stagecraft_options INTERFACE -Wl,-z,relro -Wl,-z,now)
if(NOT STAGECRAFT_SANITIZE)
    target_compile_options(stagecraft_options INTERFACE -fstack-protector-strong
        $<$<NOT:$<CONFIG:Debug>>:-D_FORTIFY_SOURCE=2>)
endif()
if(STAGECRAFT_SANITIZE)
    list(JOIN STAGECRAFT_SANITIZE "," _sc_sanitizers)
    target_compile_options(stagecraft_options INTERFACE
        -fsanitize=${_sc_sanitizers} -fno-omit-frame-pointer -fno-sanitize-recover=all)
    target_link_options(stagecraft_options INTERFACE -fsanitize=${_sc_sanitizers})
endif()

# stagecraft_add_library(<name> SOURCES ... [PUBLIC_LINKS ...] [PRIVATE_LINKS ...])
# A core library: headers are included as "<area>/<file>.h" relative to core/.
function(stagecraft_add_library name)
    cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_LINKS;PRIVATE_LINKS" ${ARGN})
    add_library(${name} STATIC ${ARG_SOURCES})
    target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/core)
    target_link_libraries(${name} PUBLIC ${ARG_PUBLIC_LINKS} PRIVATE stagecraft_options ${ARG_PRIVATE_LINKS})
    # Sanitizer flags must also reach whoever links the library.
    if(STAGECRAFT_SANITIZE)
        target_link_libraries(${name} INTERFACE stagecraft_options)
    endif()
endfunction()

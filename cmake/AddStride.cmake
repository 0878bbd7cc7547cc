# Installation of Stride's libraries and tools as one CMake package.
#
# Every library and tool that is part of the installed package calls one of
# these functions right after its add_library/add_executable; that single line
# puts it in the `StrideTargets` export set, installs it, and lists it in
# STRIDE_EXPORTED_TARGETS in the generated StrideConfig.cmake. The export set
# must be closed: a library that an installed library links must itself be
# installed through stride_install_library.
#
# Like MLIR's own package, targets are exported without a namespace, so a
# consumer links `StrideIR` exactly as Stride's own CMake does.

# Libraries. Headers are installed for the whole include/ tree at once (see
# the top-level CMakeLists.txt), so only the install-tree include directory is
# added here; the build tree uses include_directories().
function(stride_install_library target)
  target_include_directories(${target} INTERFACE
    $<INSTALL_INTERFACE:${STRIDE_INSTALL_INCLUDE_DIR}>)
  install(TARGETS ${target} EXPORT StrideTargets
    ARCHIVE DESTINATION ${STRIDE_INSTALL_LIBRARY_DIR}
    LIBRARY DESTINATION ${STRIDE_INSTALL_LIBRARY_DIR}
    RUNTIME DESTINATION ${STRIDE_INSTALL_TOOLS_DIR})
  set_property(GLOBAL APPEND PROPERTY STRIDE_EXPORTED_TARGETS ${target})
endfunction()

# Executables: installed into bin/ and exported, so a consumer can find e.g.
# `stride-opt` for its own tests as an imported target.
function(stride_install_tool target)
  install(TARGETS ${target} EXPORT StrideTargets
    RUNTIME DESTINATION ${STRIDE_INSTALL_TOOLS_DIR})
  set_property(GLOBAL APPEND PROPERTY STRIDE_EXPORTED_TARGETS ${target})
endfunction()

# Writes StrideConfig.cmake, StrideConfigVersion.cmake and StrideTargets.cmake
# into lib/cmake/stride. Runs once, deferred to the end of the top-level
# CMakeLists.txt, so that every target defined anywhere is listed.
function(stride_install_package)
  include(CMakePackageConfigHelpers)
  get_property(STRIDE_EXPORTED_TARGETS GLOBAL PROPERTY STRIDE_EXPORTED_TARGETS)
  set(STRIDE_CONFIG_MLIR_DIR "${MLIR_DIR}")
  configure_package_config_file(
    ${PROJECT_SOURCE_DIR}/cmake/StrideConfig.cmake.in
    ${PROJECT_BINARY_DIR}/lib/cmake/stride/StrideConfig.cmake
    INSTALL_DESTINATION ${STRIDE_INSTALL_PACKAGE_DIR}
    PATH_VARS STRIDE_INSTALL_INCLUDE_DIR STRIDE_INSTALL_LIBRARY_DIR
              STRIDE_INSTALL_TOOLS_DIR)
  write_basic_package_version_file(
    ${PROJECT_BINARY_DIR}/lib/cmake/stride/StrideConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(EXPORT StrideTargets DESTINATION ${STRIDE_INSTALL_PACKAGE_DIR})
  install(FILES
    ${PROJECT_BINARY_DIR}/lib/cmake/stride/StrideConfig.cmake
    ${PROJECT_BINARY_DIR}/lib/cmake/stride/StrideConfigVersion.cmake
    DESTINATION ${STRIDE_INSTALL_PACKAGE_DIR})
endfunction()

cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL stride_install_package)

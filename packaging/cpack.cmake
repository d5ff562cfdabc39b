# The Debian package: `make package` (cpack). Included from the top-level CMakeLists so the
# package holds every install() of the project.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME plimsoll)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "Plimsoll maintainers <maintainers@plimsoll.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "Imports benchmark results from the tools users already have into one local store, follows\n"
    "metrics over time, fits scaling models and sizes deployments of Kafka-compatible streaming\n"
    "on Redis (Korvet). Every capability has a command-line twin.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The window needs the platform plugins and fonts; the rest is found by dpkg-shlibdeps.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "xvfb")
set(CPACK_PACKAGE_INSTALL_DIRECTORY /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
include(CPack)

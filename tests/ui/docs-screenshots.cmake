# Copies the window-size test's screenshots of every view at 1024×700
# (ARTIFACTS/window-1024x700-<view>.png) into the manual as OUT/<view>.png.
file(GLOB shots "${ARTIFACTS}/window-1024x700-*.png")
list(FILTER shots EXCLUDE REGEX "window-1024x700-(library-detail|long-error)\\.png$")
if(NOT shots)
  message(FATAL_ERROR "no screenshots in ${ARTIFACTS}: the window-size test did not save them")
endif()
file(MAKE_DIRECTORY "${OUT}")
foreach(shot IN LISTS shots)
  get_filename_component(name "${shot}" NAME)
  string(REGEX REPLACE "^window-1024x700-" "" view "${name}")
  file(COPY_FILE "${shot}" "${OUT}/${view}" ONLY_IF_DIFFERENT)
  message(STATUS "docs/window/images/${view}")
endforeach()

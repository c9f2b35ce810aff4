#pragma once

// Long names only when the build asks for them (CMake defines GEOM_LONG_NAMES for the library and
// its users): GEOM_API(diagonal) is then geom_api_diagonal.
#ifndef GEOM_LONG_NAMES
#define GEOM_API(name) name
#else
#define GEOM_API(name) geom_api_##name
#endif

int GEOM_API(diagonal_squared)(int width, int height);

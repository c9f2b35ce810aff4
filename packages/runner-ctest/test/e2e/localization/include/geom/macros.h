#pragma once

// The library names its functions through a macro: GEOM_FUNC(perimeter) is geom_perimeter.
#define GEOM_FUNC(name) geom_##name

int GEOM_FUNC(perimeter)(int width, int height);

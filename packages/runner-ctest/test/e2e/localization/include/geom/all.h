// The umbrella header: everything the library offers.
#pragma once
#include <geom/api.h>
#include <geom/area.h>
#include <geom/bounds.h>
#include <geom/macros.h>

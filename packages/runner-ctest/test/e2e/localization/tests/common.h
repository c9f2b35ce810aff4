#pragma once
#include <gtest/gtest.h>
#include <geom/all.h>
#include "../src/internal.cpp"

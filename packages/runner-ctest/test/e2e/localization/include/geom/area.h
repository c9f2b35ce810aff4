#pragma once

// Defined in src/shapes_impl.cpp: a header and a source named differently.
int area(int width, int height);

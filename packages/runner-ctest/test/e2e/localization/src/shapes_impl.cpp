#include <geom/area.h>

int area(int width, int height) {
  return width * height;
}

#include <geom/api.h>

int GEOM_API(diagonal_squared)(int width, int height) {
  return width * width + height * height;
}

#include <geom/macros.h>

int GEOM_FUNC(perimeter)(int width, int height) {
  return 2 * (width + height);
}

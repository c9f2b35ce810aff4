export function scale(points: Array<[number, number]>, factor: number): Array<[number, number]> {
  return points.map(([x, y]) => [x * factor, y * factor]);
}

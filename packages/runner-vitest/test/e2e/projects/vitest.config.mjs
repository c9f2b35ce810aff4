export default {
  test: {
    projects: [
      { test: { name: 'unit', include: ['unit/**/*.test.mjs'] } },
      { test: { name: 'shared', include: ['shared/**/*.test.mjs', 'unit/**/*.test.mjs'] } },
    ],
  },
};

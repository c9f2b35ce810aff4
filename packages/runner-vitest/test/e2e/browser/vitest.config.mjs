export default {
  test: {
    browser: { enabled: true, headless: true, instances: [{ browser: 'chromium' }] },
  },
};

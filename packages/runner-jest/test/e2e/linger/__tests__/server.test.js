const net = require('node:net');

test('starts a server it never closes', async () => {
  await new Promise((resolve) => net.createServer().listen(0, '127.0.0.1', resolve));
});

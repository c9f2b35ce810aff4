// A small shop service (users, products, orders) for `suture generate api`, on node:http alone.
//
// It answers as openapi.yaml declares, apart from two product bugs left in on purpose, so that the
// generated suite has something real to find:
// - POST /orders does not check the stock: an order for more than is in stock is accepted (201)
//   and the product's stock goes below zero, which its schema forbids (the spec says 409);
// - POST /orders with a deliveryDate that is not a date answers 500 instead of 400.
//
// Run: node server.mjs --port 8000   (API_TOKEN sets the bearer token, default "demo-token")
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const TOKEN = process.env.API_TOKEN || 'demo-token';
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const SKU = /^[A-Z]{3}-[0-9]{4}$/;

let nextId = 1;
const users = new Map();
const products = new Map();
const orders = new Map();

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const isInt = (v) => Number.isInteger(v);
const isNumber = (v) => typeof v === 'number' && Number.isFinite(v);
const isName = (v) => typeof v === 'string' && v.length >= 1 && v.length <= 80;

function requireToken(req) {
  if (req.headers.authorization !== `Bearer ${TOKEN}`)
    throw new HttpError(401, 'missing or wrong bearer token');
}

function object(body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new HttpError(400, 'the body must be a JSON object');
  return body;
}

function found(map, id, what) {
  const item = map.get(id);
  if (!item) throw new HttpError(404, `no ${what} ${id}`);
  return item;
}

const routes = [
  ['GET', /^\/health$/, () => [200, { status: 'ok' }]],
  [
    'POST',
    /^\/users$/,
    (req, body) => {
      requireToken(req);
      const { name, email } = object(body);
      if (!isName(name)) throw new HttpError(400, 'name: a string of 1 to 80 characters is required');
      if (typeof email !== 'string' || !EMAIL.test(email))
        throw new HttpError(400, 'email: an email address is required');
      const user = { id: nextId++, name, email };
      users.set(user.id, user);
      return [201, user];
    },
  ],
  ['GET', /^\/users$/, () => [200, [...users.values()]]],
  ['GET', /^\/users\/(\d+)$/, (req, body, id) => [200, found(users, id, 'user')]],
  [
    'DELETE',
    /^\/users\/(\d+)$/,
    (req, body, id) => {
      requireToken(req);
      found(users, id, 'user');
      users.delete(id);
      return [204];
    },
  ],
  [
    'POST',
    /^\/products$/,
    (req, body) => {
      requireToken(req);
      const { sku, name, price, stock } = object(body);
      if (typeof sku !== 'string' || !SKU.test(sku))
        throw new HttpError(400, 'sku: three capitals, a dash and four digits, e.g. ABC-1234');
      if (!isName(name)) throw new HttpError(400, 'name: a string of 1 to 80 characters is required');
      if (!isNumber(price) || price < 0)
        throw new HttpError(400, 'price: a number of at least 0 is required');
      if (!isInt(stock) || stock < 0) throw new HttpError(400, 'stock: an integer of at least 0 is required');
      const product = { id: nextId++, sku, name, price, stock };
      products.set(product.id, product);
      return [201, product];
    },
  ],
  ['GET', /^\/products$/, () => [200, [...products.values()]]],
  ['GET', /^\/products\/(\d+)$/, (req, body, id) => [200, found(products, id, 'product')]],
  [
    'DELETE',
    /^\/products\/(\d+)$/,
    (req, body, id) => {
      requireToken(req);
      found(products, id, 'product');
      products.delete(id);
      return [204];
    },
  ],
  [
    'POST',
    /^\/orders$/,
    (req, body) => {
      requireToken(req);
      const { userId, productId, quantity, deliveryDate } = object(body);
      if (!isInt(userId) || !isInt(productId))
        throw new HttpError(400, 'userId and productId: integers are required');
      if (!isInt(quantity) || quantity < 1 || quantity > 100)
        throw new HttpError(400, 'quantity: an integer from 1 to 100 is required');
      if (deliveryDate !== undefined && typeof deliveryDate !== 'string')
        throw new HttpError(400, 'deliveryDate: a date (YYYY-MM-DD) is expected');
      // Product bug: a deliveryDate that is not a date throws a RangeError here, answered as a 500.
      const when = deliveryDate === undefined ? undefined : new Date(deliveryDate).toISOString().slice(0, 10);
      found(users, userId, 'user');
      const product = found(products, productId, 'product');
      // Product bug: no check that quantity <= product.stock (the spec answers 409).
      product.stock -= quantity;
      const order = {
        id: nextId++,
        userId,
        productId,
        quantity,
        total: Math.round(product.price * quantity * 100) / 100,
        status: 'placed',
        ...(when ? { deliveryDate: when } : {}),
      };
      orders.set(order.id, order);
      return [201, order];
    },
  ],
  [
    'GET',
    /^\/orders$/,
    (req, body, _, query) => {
      const userId = query.get('userId');
      if (userId !== null && !/^\d+$/.test(userId))
        throw new HttpError(400, 'userId: an integer is expected');
      return [200, [...orders.values()].filter((o) => userId === null || o.userId === Number(userId))];
    },
  ],
  ['GET', /^\/orders\/(\d+)$/, (req, body, id) => [200, found(orders, id, 'order')]],
  [
    'DELETE',
    /^\/orders\/(\d+)$/,
    (req, body, id) => {
      requireToken(req);
      const order = found(orders, id, 'order');
      orders.delete(id);
      const product = products.get(order.productId);
      if (product) product.stock += order.quantity;
      return [204];
    },
  ],
];

function send(res, status, payload) {
  if (payload === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(payload);
  res
    .writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    .end(text);
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'the body is not JSON');
  }
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const matching = routes.filter(([, pattern]) => pattern.test(url.pathname));
  const route = matching.find(([method]) => method === req.method);
  try {
    if (!route)
      throw new HttpError(matching.length ? 405 : 404, matching.length ? 'method not allowed' : 'not found');
    const id = Number(route[1].exec(url.pathname)[1]);
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    const [status, payload] = route[2](req, body, id, url.searchParams);
    send(res, status, payload);
  } catch (error) {
    if (error instanceof HttpError) send(res, error.status, { code: error.status, message: error.message });
    else {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`Internal Server Error: ${error.message}`);
    }
  }
});

const { values } = parseArgs({
  options: { port: { type: 'string', default: '8000' }, host: { type: 'string', default: '127.0.0.1' } },
});
server.listen(Number(values.port), values.host, () => {
  console.log(`listening on http://${values.host}:${server.address().port}`);
});
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });

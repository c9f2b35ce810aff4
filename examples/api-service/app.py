"""A small shop service (users, products, orders) for `suture generate api`.

It answers as openapi.yaml declares, apart from two product bugs left in on purpose, so that the
generated suite has something real to find:

- POST /orders does not check the stock: an order for more than is in stock is accepted (201)
  and the product's stock goes below zero, which its schema forbids (the spec says 409).
- POST /orders with a deliveryDate that is not a date answers 500 instead of 400.

Run: python app.py --port 8000   (API_TOKEN sets the bearer token, default "demo-token")
"""

import argparse
import datetime
import itertools
import os
import re
import threading

from flask import Flask, jsonify, request

TOKEN = os.environ.get("API_TOKEN", "demo-token")
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
SKU = re.compile(r"^[A-Z]{3}-[0-9]{4}$")

app = Flask(__name__)
lock = threading.Lock()
ids = itertools.count(1)
users: dict = {}
products: dict = {}
orders: dict = {}


def error(status, message):
    return jsonify({"code": status, "message": message}), status


def authorised():
    return request.headers.get("Authorization") == f"Bearer {TOKEN}"


def body_object():
    data = request.get_json(silent=True)
    return data if isinstance(data, dict) else None


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@app.errorhandler(404)
def not_found(_):
    return error(404, "not found")


@app.errorhandler(405)
def not_allowed(_):
    return error(405, "method not allowed")


@app.get("/health")
def health():
    return jsonify({"status": "ok"})


@app.post("/users")
def create_user():
    if not authorised():
        return error(401, "missing or wrong bearer token")
    data = body_object()
    if data is None:
        return error(400, "the body must be a JSON object")
    name, email = data.get("name"), data.get("email")
    if not isinstance(name, str) or not 1 <= len(name) <= 80:
        return error(400, "name: a string of 1 to 80 characters is required")
    if not isinstance(email, str) or not EMAIL.match(email):
        return error(400, "email: an email address is required")
    with lock:
        user = {"id": next(ids), "name": name, "email": email}
        users[user["id"]] = user
    return jsonify(user), 201


@app.get("/users")
def list_users():
    return jsonify(list(users.values()))


@app.get("/users/<int:user_id>")
def get_user(user_id):
    user = users.get(user_id)
    return jsonify(user) if user else error(404, f"no user {user_id}")


@app.delete("/users/<int:user_id>")
def delete_user(user_id):
    if not authorised():
        return error(401, "missing or wrong bearer token")
    with lock:
        if users.pop(user_id, None) is None:
            return error(404, f"no user {user_id}")
    return "", 204


@app.post("/products")
def create_product():
    if not authorised():
        return error(401, "missing or wrong bearer token")
    data = body_object()
    if data is None:
        return error(400, "the body must be a JSON object")
    sku, name, price, stock = (data.get(k) for k in ("sku", "name", "price", "stock"))
    if not isinstance(sku, str) or not SKU.match(sku):
        return error(400, "sku: three capitals, a dash and four digits, e.g. ABC-1234")
    if not isinstance(name, str) or not 1 <= len(name) <= 80:
        return error(400, "name: a string of 1 to 80 characters is required")
    if not is_number(price) or price < 0:
        return error(400, "price: a number of at least 0 is required")
    if not is_int(stock) or stock < 0:
        return error(400, "stock: an integer of at least 0 is required")
    with lock:
        product = {"id": next(ids), "sku": sku, "name": name, "price": price, "stock": stock}
        products[product["id"]] = product
    return jsonify(product), 201


@app.get("/products")
def list_products():
    return jsonify(list(products.values()))


@app.get("/products/<int:product_id>")
def get_product(product_id):
    product = products.get(product_id)
    return jsonify(product) if product else error(404, f"no product {product_id}")


@app.delete("/products/<int:product_id>")
def delete_product(product_id):
    if not authorised():
        return error(401, "missing or wrong bearer token")
    with lock:
        if products.pop(product_id, None) is None:
            return error(404, f"no product {product_id}")
    return "", 204


@app.post("/orders")
def create_order():
    if not authorised():
        return error(401, "missing or wrong bearer token")
    data = body_object()
    if data is None:
        return error(400, "the body must be a JSON object")
    user_id, product_id, quantity = data.get("userId"), data.get("productId"), data.get("quantity")
    if not is_int(user_id) or not is_int(product_id):
        return error(400, "userId and productId: integers are required")
    if not is_int(quantity) or not 1 <= quantity <= 100:
        return error(400, "quantity: an integer from 1 to 100 is required")
    delivery = data.get("deliveryDate")
    if delivery is not None and not isinstance(delivery, str):
        return error(400, "deliveryDate: a date (YYYY-MM-DD) is expected")
    # Product bug: a deliveryDate that is not a date raises here, and Flask answers 500.
    when = datetime.date.fromisoformat(delivery) if delivery else None
    with lock:
        if user_id not in users:
            return error(404, f"no user {user_id}")
        product = products.get(product_id)
        if product is None:
            return error(404, f"no product {product_id}")
        # Product bug: no check that quantity <= product["stock"] (the spec answers 409).
        product["stock"] -= quantity
        order = {
            "id": next(ids),
            "userId": user_id,
            "productId": product_id,
            "quantity": quantity,
            "total": round(product["price"] * quantity, 2),
            "status": "placed",
        }
        if when:
            order["deliveryDate"] = when.isoformat()
        orders[order["id"]] = order
    return jsonify(order), 201


@app.get("/orders")
def list_orders():
    user_id = request.args.get("userId")
    if user_id is not None and not user_id.isdigit():
        return error(400, "userId: an integer is expected")
    found = [o for o in orders.values() if user_id is None or o["userId"] == int(user_id)]
    return jsonify(found)


@app.get("/orders/<int:order_id>")
def get_order(order_id):
    order = orders.get(order_id)
    return jsonify(order) if order else error(404, f"no order {order_id}")


@app.delete("/orders/<int:order_id>")
def cancel_order(order_id):
    if not authorised():
        return error(401, "missing or wrong bearer token")
    with lock:
        order = orders.pop(order_id, None)
        if order is None:
            return error(404, f"no order {order_id}")
        product = products.get(order["productId"])
        if product:
            product["stock"] += order["quantity"]
    return "", 204


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    from werkzeug.serving import make_server

    server = make_server(args.host, args.port, app, threaded=True)
    print(f"listening on http://{args.host}:{server.port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()

. ./src/calc.sh
got=$(add 2 3)
[ "$got" = 6 ] || { echo "add 2 3: expected 6, got $got"; exit 1; }

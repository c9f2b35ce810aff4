. ./src/calc.sh
got=$(mul 2 3)
[ "$got" = 6 ] || { echo "mul 2 3: expected 6, got $got"; exit 1; }

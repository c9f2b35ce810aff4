# Marks its own start in $PAIR_DIR, then waits up to 5 s for its partner's.
touch "${PAIR_DIR:?}/$1.started"
i=0
while [ ! -e "$PAIR_DIR/$2.started" ]; do
  i=$((i + 1))
  if [ "$i" -gt 50 ]; then
    echo "$2 never started while $1 ran"
    exit 1
  fi
  sleep 0.1
done

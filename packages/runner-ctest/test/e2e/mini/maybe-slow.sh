# Sleeps a minute while the file named by $1 exists.
if [ -e "$1" ]; then sleep 60; fi

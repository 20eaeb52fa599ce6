#!/bin/sh
# The agent's channel inside a guest, the same in every image: one request a line on the
# virtio-serial port org.cloudsvc.guest, `<id> <verb> <user> <argument>`, handed to the image's own
# request handler ($1, which knows where its accounts are), answered `<id> ok <what>` or
# `<id> error <why>`. The port reads end-of-file while no agent is connected; the loop then waits
# and reads again. No request or answer is ever printed: a hash or a password never reaches a console.
handler=$1
port=
for d in /sys/class/virtio-ports/*; do
  [ "$(cat "$d/name" 2>/dev/null)" = org.cloudsvc.guest ] && port=/dev/${d##*/}
done
if [ -z "$port" ] || [ ! -c "$port" ]; then sleep 5; exit 1; fi
exec 3<>"$port"
while true; do
  if read -r id verb user arg <&3; then
    echo "$id $("$handler" "$verb" "$user" "$arg")" >&3
  else
    sleep 1
  fi
done

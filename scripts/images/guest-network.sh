#!/bin/sh
# The guest's network as the agent gives it, the same in every image: one line per NIC on stdin,
# `<mac> <address/prefix,…|-> <IPv4 gateway|-> <IPv6 gateway|->`, from the seed's network-config at
# boot (`guest-network <network-config>`: the agent's own spelling of cloud-init's version 2, each
# value a quoted string) or over the agent's channel while the guest runs (`set-network`).
# Each NIC, found by its MAC, is brought up with exactly those addresses (the others taken off,
# the kept ones never touched) and its default routes; an IPv4 address is announced (gratuitous
# ARP, where the image has arping), so a floating address moved here is answered here at once.
# A NIC just hot-plugged may take the guest a moment to find: they are waited for up to 15 s.
# Says on the console what each NIC has. Prints `applied`; `refused <why>` for a line not in that
# form (then nothing is changed); `missing <mac>…` for NICs not found (the others are applied).
valid() {
  case "$1" in *[!0-9a-f:]* | '') return 1 ;; esac
  case "$2" in *[!0-9a-f.:/,-]* | '') return 1 ;; esac
  case "$3" in *[!0-9.-]* | '') return 1 ;; esac
  case "$4" in *[!0-9a-f:-]* | '') return 1 ;; esac
}
from_seed() {
  awk '
    function flush() { if (mac != "") print mac, (addrs == "" ? "-" : addrs), gw4, gw6; mac = ""; addrs = ""; gw4 = "-"; gw6 = "-" }
    BEGIN { gw4 = "-"; gw6 = "-" }
    /^  [a-z0-9]+:$/ { flush() }
    { value = $0; sub(/^[^"]*"/, "", value); sub(/"$/, "", value) }
    /^      macaddress: "/ { mac = value }
    /^      - "/ { addrs = (addrs == "" ? value : addrs "," value) }
    /^    gateway4: "/ { gw4 = value }
    /^    gateway6: "/ { gw6 = value }
    END { flush() }
  ' "$1"
}
if [ -n "$1" ]; then lines=$(from_seed "$1"); else lines=$(cat); fi
echo "$lines" | while read -r mac addresses gateway4 gateway6; do
  [ -z "$mac" ] || valid "$mac" "$addresses" "$gateway4" "$gateway6" || { echo "refused $mac"; exit 1; }
done || exit 0
device_of() {
  for d in /sys/class/net/*; do [ "$(cat "$d/address" 2>/dev/null)" = "$1" ] && echo "${d##*/}"; done
}
deadline=$(($(date +%s) + 15))
missing=$(echo "$lines" | while read -r mac addresses gateway4 gateway6; do
  [ -n "$mac" ] || continue
  dev=$(device_of "$mac")
  while [ -z "$dev" ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.5; dev=$(device_of "$mac"); done
  [ -n "$dev" ] || { echo "$mac"; continue; }
  ip link set "$dev" up
  wanted=$(echo "$addresses" | tr , ' ')
  [ "$wanted" = - ] && wanted=
  for have in $(ip -o addr show dev "$dev" scope global | awk '{ print $4 }'); do
    case " $wanted " in *" $have "*) ;; *) ip addr del "$have" dev "$dev" ;; esac
  done
  for address in $wanted; do
    case "$address" in
      *:*) ip -6 addr add "$address" dev "$dev" nodad 2>/dev/null ;;
      *) ip -4 addr add "$address" dev "$dev" 2>/dev/null ;;
    esac
  done
  [ "$gateway4" = - ] || ip -4 route replace default via "$gateway4" dev "$dev"
  [ "$gateway6" = - ] || ip -6 route replace default via "$gateway6" dev "$dev"
  if command -v arping >/dev/null; then
    for address in $wanted; do
      case "$address" in *:*) ;; *) arping -U -c 1 -I "$dev" "${address%/*}" >/dev/null 2>&1 & ;; esac
    done
  fi
  echo "guest: network $dev $mac $(echo ${wanted:-none} | tr ' ' ,)" >/dev/console
done)
if [ -n "$missing" ]; then echo "missing" $missing; else echo applied; fi

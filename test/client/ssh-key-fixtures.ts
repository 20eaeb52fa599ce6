/**
 * Public keys made with OpenSSH 9.2's ssh-keygen, each with the fingerprint `ssh-keygen -l` printed
 * for it: the API's fingerprints are held to OpenSSH's own.
 */
export const KEYS = {
  ed25519: {
    line: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBvaqAz7lrs5U0pWgB8PtJpJyD7yfgrTg5MhMsNRbnVU alice@laptop',
    fingerprint: 'SHA256:Vyqd6j2p0zoL30psoF20r5aloucBEAHHvJAoATPXVeM',
  },
  ed25519Second: {
    line: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMoecIsUaOuusndm7bSnVHSGEkmCpgtE+tsQKyc8lWlI second',
    fingerprint: 'SHA256:CntLTp9ti5S9lm3Ing0dWwSZaCMCkG5EXe9+ukkSc+4',
  },
  ecdsa256: {
    line: 'ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBPnv4CpEZjVhIDYWipJDMmI/SNlWMp6ykRijc9FSh2LbVz8cS8hKD6Y6ruQKjqnZZUpMw6d/PY9xYQxyZX7adek= ec256',
    fingerprint: 'SHA256:/n6JUY8bLHP7iYOSuHBBk9HLWUxCP79GRin7/nZVpiU',
  },
  ecdsa384: {
    line: 'ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBBFbUhWEYweKhQWjvgld2UbBwJ0P8wCIG0aS+KFlIC2TY5dZ4VdE5TIiXTl88CsiefuJsbvgra0naDwNJ9VGodptflmsTcXefAQnue2VPQ27i+guI1eH6sA1ty7JRSqLhw== ec384 with spaces',
    fingerprint: 'SHA256:qGhRGgKlG2XXAF2OJ0+4seN4FLy+0yLulP7AZoDi2rs',
  },
  ecdsa521: {
    line: 'ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFBACJRykCHqBHJsZ4KqZH2Lu2HWQBD/124uWVl4YCIss0uVbkEakM91DnYT15SEqDtkI5PkwkfucUF0hQ8063+G1o5QH+50zMbsNLZK+leQBBelxXYjAXMz5EI9ihS4o8C2wY6TvtaEIEMxdP6p05bc2JEl/SeJV7t5wniGqTOGQ7MjTKFg==',
    fingerprint: 'SHA256:ZhHmVXcUcmDBf7N48eBObwjMDPbw+QFQJTyZY1t45KY',
  },
  rsa2048: {
    line: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCS9GPYZhjq2XoEKR5uKdxA2cZCw36AOdY8rE94Dl7ytg/149VJX3U6pJJiq0RQSzEAUFiIf2UhaKXS9pz/gki088JOHxrPmpCoJC83goPKOvy89JLo0COoQtQZdH8wjkarQW/CZAPs/JnAiVlt3xTDg8Nhbzmdt3GocT8evRRdvE7JmvsyIqWoy5LMXNfxirwENcUs4JAKJp/5926tLxyXPAv2oL7rzHE7BhHZ77w1gPLoEqqvxXJPj11DWUvEYs3DXCJRCCtRDhwMvFwvpt4iRKC9XPtdVKme9lJJBERXwXYYf2bbED6PVAGR5J1P9JG+8JMzqdZbwD/89FOaf8qL rsa2048',
    fingerprint: 'SHA256:lJN3D9ZwjRUPpo7v5RRfeWIavtHDTITURDHw84tCrSo',
  },
  rsa4096: {
    line: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAACAQCm5rjpevAuWsbY89QqgRpongELtgi84ZBt6vheO2ytg3ntfm+1qM9G3E3H0ZnWWus5xBTR1wWu+fLdup1sqW/yJYANyGuIR3ivr95KzBw7XY+nx46rz0O2ul6onYGM+oKtKLqlddtdI/G65ZE7+z0NSCWUznwQHugF/oOKM/QYQSiHzaOzX0Tr0zqP2tp81gVoDwWkkE0yMY54ZIIZo8G1ncV27COCQlKsWis6TZbGg7NgCwIc/iuCgQuD/QvqxdOc7IuU7+oTxjhlTzAnnokzDaFIQYMzpOoGRYSXwGoXoAOwEoDC1oq5/XS/5S6UpZ5B7x2ZIRyi6T6i4UelM435jU3XFz/V+6nY1efvMGPIp3SrAFMf+WDs9uEwrbwEqNzbe6TRgvqrx7+GwMMjSm1ZWcHiKrtE7Y5EMRItvIuAScB/eKnpcwfA8Zfvqf4fXrOjj1G205SSeyzOpjyPml/OunqpvNerFh8wqqOmXu+yHaijhAVOf033rcBr812bI6P3JhnFrSZIIOv7A315FvuYoHgkNuvoUYzZNIa36kE5AhQ1njD1HwJ+rNb2g/swugeoqQJvrhCOxszCDsrOebHdDGc0rUPkr5CMlIs4ZlvyyX7V8hLVpNWH0dg6GhMHUiStXSAX6U06SFD+V90SEgr5pnRxZ1XspRc2UrvmJDR8cw== rsa4096',
    fingerprint: 'SHA256:7iyOPdghgmc30eEd3ysKdrCgtpK+AEx46q1uTiHESsY',
  },
} as const;

/** Keys the API must refuse, with what ssh-keygen says of them. */
export const REFUSED_KEYS = {
  rsa1024:
    'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQCqpp7kmNjGJAOi/bDZTrgJkP4ub3pUUYKF+QJQ1i1DM0ggHTU0CVvwSiTTXfhKnXynTeWFZFe10tn3Kao7MLkC+xZy0bTVc6YR5iKuLe5JjZYfpUgGg3EdJpyXeW5Rvh7DgEP+c+yrIq8jU7ZqWqSdZJwl972w9mSHKLETxkQtgw== rsa1024',
  dsa: 'ssh-dss AAAAB3NzaC1kc3MAAACBAM8ipLpAW2Y7DfpowZ2hZiJTCykIAoNVqnLTd516wlBqjQs+5Eb0gxkxyFhiW0FTH4nZdzdx60DxMK4qa2vFrGUiC08IfH/CEyng+4l24JpiZmZeCGw5h/9h/SCsAF+F9x9f7rHLg+4+yeO/8OgEaM8Z5e4k8Vs0VNDJP/t0eQ2BAAAAFQD8W7v271DBpuvoYIB5dg5rOnpsvwAAAIEArlQ5FS7kTXS1RdfumHC56K1Zn9IdKhs1xLhekuLpSyheWhSsBGYjHbB3v68rO9xNujFCYWdXaabwZYBjbfYuVT5FuXvubq2LeChYWg5oQMOyUFz/e5elpLrVx/CKxIOgzlaviBvjjSI+51sO1hRJYe6ZFh4J+U1WrGc92sMzN5wAAACBAIWuYsVtzeVWLiniSZSS2pehPWMFLScgrUF1NdZDVb/wJX8OOiTpkUb9huSM2lX868GHmb7164m1nuj62wpO9JGCvAjHA0V60Gfl+1iJVglfV3M/MZFO3LonQKOgpZ3YX71+wcEx9Bl7JSP2e6h3OQCNQCXv9Hgr5cap7Lft4rb1 dsa',
} as const;

/**
 * `plan` of `/plans/{plan}` or `/plans/{plan}/host-requirements`: the one parameter of a resource
 * route's path. The route file states its path whole, as OpenAPI writes it, and its factory reads
 * the parameter's name from there rather than from a second field that could disagree.
 */
export function pathParam<P extends string>(path: `${string}{${P}}${string}`): P {
  const open = path.indexOf('{');
  // A second parameter would be one the factory neither declares nor reads: refused at start-up.
  if (path.lastIndexOf('{') !== open) throw new Error(`${path} names more than one parameter`);
  // The type has matched the same characters: the name between the braces.
  return path.slice(open + 1, path.indexOf('}')) as P;
}

/**
 * The account an image's cloud image creates for the customer's keys: Debian and Ubuntu cloud
 * images make `debian` and `ubuntu` and lock root out of SSH; every other image we ship keys root.
 */
export function loginUserOf(osFamily: string): string {
  switch (osFamily) {
    case 'debian':
      return 'debian';
    case 'ubuntu':
      return 'ubuntu';
    default:
      return 'root';
  }
}

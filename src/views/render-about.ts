import type { TextView } from './output.js';

export interface VersionInfo {
  name: string;
  version: string;
  node: string;
  platform: string;
  arch: string;
}

/** `version`: the line oclif's `--version` prints (`hippo/0.1.0 linux-x64 node-v20.19.0`); JSON has the parts. */
export const versionView: TextView<VersionInfo> = ({ name, version, node, platform, arch }) => `${name}/${version} ${platform}-${arch} node-${node}`;

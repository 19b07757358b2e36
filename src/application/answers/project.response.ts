/** What `discover`, `check` and `init` say of the service's projects (the CLI's `--json` prints these). */

/** A project an Api-key of the config sees (`GET /user/projects`). */
export interface VisibleProjectResponse {
  /** the service's project number */
  project: string;
  name: string;
  currency: string;
  /** the service's URL, or `the embedded sandbox` */
  service: string;
  /** its name in the config (`default`: the `tracker:` section's project), or null: not configured */
  configured_as: string | null;
}

/** One project of the config: does its key see it? */
export interface ConfiguredProjectResponse {
  /** the name in the config (`default` for the `tracker:` section's) */
  name: string;
  /** the key naming it: `tracker.project` or `projects.<name>` */
  key: string;
  project: string;
  service: string;
  ok: boolean;
  message: string;
}

export interface ProjectsDiscoveryResponse {
  /** ok: every configured project is one its key sees */
  ok: boolean;
  /** every project the config's keys see, by service then number */
  projects: VisibleProjectResponse[];
  configured: ConfiguredProjectResponse[];
}

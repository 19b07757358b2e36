import { TrackerHttp } from '../http/tracker-http';
import {
  ProjectCreateRequest,
  ProjectCreateResponse,
  ProjectListResponse,
  TrackingCodeListResponse,
} from '../types/projects.types';

/** Projects (not project-scoped) and the project's tracking code. */
export class ProjectsClient {
  constructor(private readonly http: TrackerHttp) {}

  /** GET /user/projects */
  list(): Promise<ProjectListResponse> {
    return this.http.call('projectsList');
  }

  /** POST /account/project/create */
  create(req: ProjectCreateRequest): Promise<ProjectCreateResponse> {
    return this.http.call('projectsCreate', { body: req });
  }

  /** POST /project/settings/counter/list */
  trackingCodes(): Promise<TrackingCodeListResponse> {
    return this.http.call('trackingCodesList', { body: {} });
  }
}

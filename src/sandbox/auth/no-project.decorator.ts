import { SetMetadata } from '@nestjs/common';

export const NO_PROJECT_KEY = 'sandbox:no-project';

/** Marks a route that takes no `project` query parameter (projects list/create, billing where optional). */
export const NoProject = (): MethodDecorator & ClassDecorator => SetMetadata(NO_PROJECT_KEY, true);

import { Injectable } from '@nestjs/common';

export interface SandboxInfoData {
  baseUrl?: string;
  projectId: number;
  apiKey: string;
}

/** What a user needs to talk to this sandbox: the demo project and its key (set after seeding). */
@Injectable()
export class SandboxInfo {
  private data: SandboxInfoData = { projectId: 1, apiKey: '' };

  set(data: SandboxInfoData): void {
    this.data = { ...this.data, ...data };
  }

  setBaseUrl(baseUrl: string): void {
    this.data = { ...this.data, baseUrl };
  }

  getSandboxInfo(): SandboxInfoData {
    return { ...this.data };
  }
}

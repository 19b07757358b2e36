import { Injectable } from '@nestjs/common';
import { badRequest } from '../../errors/sandbox-error';
import { SandboxDocumentStore, StoredDocument } from '../../storage/document-store';
import { CHANNEL_KIND, ChannelDoc } from './channel.types';

/** The project's marketing channels; other sections check channel system names against them. */
@Injectable()
export class ChannelsService {
  constructor(private readonly store: SandboxDocumentStore) {}

  async list(project: number): Promise<ChannelDoc[]> {
    const docs = await this.store.list<ChannelDoc>(project, CHANNEL_KIND);
    return docs.map(({ name, system_name, icon }) => ({ name, system_name, icon }));
  }

  /** A channel system name given in a request must be one of the project's channels. */
  async requireChannel(project: number, systemName: string, field: string): Promise<StoredDocument<ChannelDoc>> {
    const channels = await this.store.list<ChannelDoc>(project, CHANNEL_KIND, (doc) => doc.system_name === systemName);
    if (channels.length === 0) {
      const known = (await this.list(project)).map((channel) => channel.system_name);
      throw badRequest(field, `${field}: unknown channel "${systemName}"; channels of the project: ${known.join(', ')}`);
    }
    return channels[0];
  }
}

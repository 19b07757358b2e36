import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ProjectId } from '../../auth/project-id.decorator';
import { SandboxAuthGuard } from '../../auth/sandbox-auth.guard';
import { success } from '../common/success';
import { DictionariesService } from './dictionaries.service';
import { SpeechCallsService } from './speech-calls.service';

/** Speech analytics: calls and dictionaries. */
@Controller('project/speech')
@UseGuards(SandboxAuthGuard)
export class SpeechController {
  constructor(
    private readonly calls: SpeechCallsService,
    private readonly dictionaries: DictionariesService,
  ) {}

  @Post('call/add')
  @HttpCode(200)
  async addCall(@ProjectId() project: number, @Body() body: unknown) {
    await this.calls.add(project, body);
    return success();
  }

  @Post('call/list')
  @HttpCode(200)
  async listCalls(@ProjectId() project: number, @Body() body: unknown) {
    return success({ data: await this.calls.list(project, body) });
  }

  @Post('dictionary/list')
  @HttpCode(200)
  async listDictionaries(@ProjectId() project: number) {
    const data = await this.dictionaries.list(project);
    return success({ data, total: data.length });
  }

  @Post('dictionary/custom/phrase/list')
  @HttpCode(200)
  async listPhrases(@ProjectId() project: number, @Body() body: unknown) {
    return success({ data: await this.dictionaries.phrases(project, body) });
  }

  /** Answers every dictionary of the project, as the specification says. */
  @Post('dictionary/custom/create')
  @HttpCode(200)
  async createDictionary(@ProjectId() project: number, @Body() body: unknown) {
    await this.dictionaries.create(project, body);
    const data = await this.dictionaries.list(project);
    return success({ data, total: data.length });
  }

  @Post('dictionary/custom/update')
  @HttpCode(200)
  async updateDictionary(@ProjectId() project: number, @Body() body: unknown) {
    await this.dictionaries.update(project, body);
    return success();
  }

  @Post('dictionary/custom/delete')
  @HttpCode(200)
  async deleteDictionary(@ProjectId() project: number, @Body() body: unknown) {
    await this.dictionaries.delete(project, body);
    return success();
  }
}

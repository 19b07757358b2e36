import { Module } from '@nestjs/common';
import { StatusPageController } from './status-page.controller';

@Module({ controllers: [StatusPageController] })
export class StatusPageModule {}

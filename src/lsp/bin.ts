#!/usr/bin/env node
import {startLanguageServer} from './server.js'

startLanguageServer()

import {checkCorpusPart} from '../support/corpus.js'

checkCorpusPart(4)

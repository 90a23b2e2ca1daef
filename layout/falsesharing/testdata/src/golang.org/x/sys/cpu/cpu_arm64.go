package cpu

const cacheLineSize = 128

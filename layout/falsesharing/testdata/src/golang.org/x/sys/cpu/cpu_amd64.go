package cpu

const cacheLineSize = 64

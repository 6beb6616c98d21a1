// pt-BR catalogue, namespace `ctgLearn` (keys are `ctgLearn.*`).
export default {
};
